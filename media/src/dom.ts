// Tiny DOM helpers for the webview. Text always goes through textContent: run ids, labels and
// profile names come from files, and nothing from a file may become markup.

type Attributes = Record<string, string | number | boolean | undefined | null>;
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replaces an element's children. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** Makes a string safe for an HTML id (ids come from the host already safe; this is a backstop). */
export function safeId(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

/**
 * Takes what is focusable inside a box out of the tab order while the box is only there for screen
 * readers (visually hidden: Tab would land on a 1×1 px cell and the focus would vanish), and puts
 * each back as it was when the box is shown.
 */
export function setTabbable(box: HTMLElement, tabbable: boolean): void {
  for (const element of Array.from(
    box.querySelectorAll<HTMLElement>('[tabindex], a[href], button, input, select, textarea'),
  )) {
    if (!tabbable) {
      if (element.dataset.tabindexShown === undefined)
        element.dataset.tabindexShown = element.getAttribute('tabindex') ?? '';
      element.tabIndex = -1;
    } else if (element.dataset.tabindexShown !== undefined) {
      if (element.dataset.tabindexShown === '') element.removeAttribute('tabindex');
      else element.setAttribute('tabindex', element.dataset.tabindexShown);
      delete element.dataset.tabindexShown;
    }
  }
}
