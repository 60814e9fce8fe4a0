// A tolerant scanner for Onload profiles. A profile is POSIX shell sourced by the `onload`
// launcher; we only need the two directives (`onload_set`, `onload_import`), their exact ranges,
// and whether they sit somewhere that makes them conditional (if/case/loop/function/subshell,
// && or ||, a pipeline). Everything else is skipped as shell words. The scanner never throws and
// is linear in the size of the text (each character is visited a bounded number of times).

export interface Span {
  /** Offset of the first character. */
  start: number;
  /** Offset just past the last character. */
  end: number;
}

export interface ShellWord extends Span {
  /** The word with quotes removed (expansions kept verbatim). */
  value: string;
  /** Some part was quoted ('...' or "..."). */
  quoted: boolean;
  /** Contains a parameter, arithmetic or command expansion, so its value is only known at run time. */
  expands: boolean;
}

/** Why a directive may or may not run (outermost first). */
export type ConditionalContext = 'if' | 'case' | 'loop' | 'function' | 'subshell' | 'and-or' | 'pipeline';

interface DirectiveBase {
  /** The whole command, from the directive's keyword to its last word. */
  command: Span;
  keyword: Span;
  /** 0-based line of the keyword. */
  line: number;
  contexts: ConditionalContext[];
  /** True when the shell may skip it or run it in a subshell: never claim certainty about it. */
  conditional: boolean;
  /** The command is alone on its line(s) (except for a comment), so removing the line is safe. */
  ownsLine: boolean;
}

export interface SetDirective extends DirectiveBase {
  kind: 'set';
  /** The variable name ('' when the directive has no argument at all). */
  name: string;
  nameSpan: Span;
  /**
   * The name contains an expansion (`"$knob"`): the shell builds it at run time, so it is unknown here, not invalid.
   */
  nameDynamic: boolean;
  /** `words` is `onload_set NAME VALUE`, `equals` is `onload_set NAME=VALUE`. */
  form: 'words' | 'equals';
  /** The value the launcher assigns, when it can be known statically ('' when missing). */
  value: string;
  /** Where the value is written (an empty span right after the name when missing). */
  valueSpan: Span;
  /** The value contains an expansion: only known at run time. */
  valueDynamic: boolean;
  /** The value was missing or literally empty, so the launcher sets the variable to its own name. */
  valueMissing: boolean;
  /** `NAME=A=B`: the text the author wrote after the first '=' (the launcher keeps only `A`). */
  cutFrom?: { written: string; span: Span };
  /** Words after the value, which the launcher ignores. */
  extraWords: ShellWord[];
}

export interface ImportDirective extends DirectiveBase {
  kind: 'import';
  /** The profile name or path ('' when missing). */
  name: string;
  nameSpan: Span;
  /** The name contains an expansion and cannot be resolved statically. */
  nameDynamic: boolean;
  args: ShellWord[];
}

export type Directive = SetDirective | ImportDirective;

export interface ShellFunction {
  name: string;
  nameSpan: Span;
  /** From the name to the closing brace (or the end of the text when it is never closed). */
  span: Span;
}

export interface ParsedProfile {
  directives: Directive[];
  functions: ShellFunction[];
  /** Offsets at which each line starts, for offset <-> position conversions. */
  lineStarts: number[];
  length: number;
}

const enum Ch {
  Tab = 9,
  Lf = 10,
  Cr = 13,
  Space = 32,
  Bang = 33,
  Quote = 34,
  Hash = 35,
  Dollar = 36,
  Amp = 38,
  Apos = 39,
  LParen = 40,
  RParen = 41,
  Semi = 59,
  Lt = 60,
  Gt = 62,
  Backslash = 92,
  Backtick = 96,
  LBrace = 123,
  Pipe = 124,
  RBrace = 125,
}

type Operator = ';' | ';;' | '&&' | '||' | '|' | '&' | '(' | ')' | '\n' | '<' | '>' | '>>' | '>&' | '<&' | '<<' | '<<-';

/** What `next()` found; the word or operator itself is left in fields (no wrapper object per token). */
const enum TokenKind {
  End,
  Word,
  Operator,
}

interface Frame {
  kind: 'if' | 'case' | 'loop' | 'function' | 'group' | 'subshell';
  fn?: ShellFunction;
}

/** How readWord treats an ASCII character (anything else is part of the word). */
const enum WordChar {
  Plain,
  Break,
  Quote,
  Expansion,
}
const wordCharKinds = new Uint8Array(128);
for (const code of [Ch.Space, Ch.Tab, Ch.Lf, Ch.Cr, Ch.Semi, Ch.Amp, Ch.Pipe, Ch.LParen, Ch.RParen, Ch.Lt, Ch.Gt])
  wordCharKinds[code] = WordChar.Break;
for (const code of [Ch.Backslash, Ch.Apos, Ch.Quote]) wordCharKinds[code] = WordChar.Quote;
for (const code of [Ch.Dollar, Ch.Backtick]) wordCharKinds[code] = WordChar.Expansion;

const quotedFlag = 1;
const expandsFlag = 2;

const maxNesting = 64;
/** Shared empty lists (never mutated) so unconditional, single-valued directives allocate less. */
const noContexts: ConditionalContext[] = [];
const noWords: ShellWord[] = [];
const reservedOpeners = new Map<string, Frame['kind']>([
  ['if', 'if'],
  ['while', 'loop'],
  ['until', 'loop'],
  ['for', 'loop'],
  ['case', 'case'],
]);
const reservedClosers = new Map<string, Frame['kind'][]>([
  ['fi', ['if']],
  ['done', ['loop']],
  ['esac', ['case']],
  ['}', ['function', 'group']],
]);
const reservedContinuers = new Set(['then', 'else', 'elif', 'do', '!']);

export function lineStartsOf(text: string): number[] {
  const starts = [0];
  let index = text.indexOf('\n');
  while (index !== -1) {
    starts.push(index + 1);
    index = text.indexOf('\n', index + 1);
  }
  return starts;
}

/** 0-based line containing `offset` (binary search over line starts). */
export function lineOf(lineStarts: number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lineStarts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

export function parseProfile(text: string): ParsedProfile {
  return new ProfileParser(text).parse();
}

class ProfileParser {
  private pos = 0;
  private operator: Operator = '\n';
  private operatorStart = 0;
  /** Depth of nested expansions being skipped; past a limit nesting is counted, not recursed into. */
  private nesting = 0;
  private readonly directives: Directive[] = [];
  private readonly functions: ShellFunction[] = [];
  private readonly frames: Frame[] = [];
  /** Contexts lists for the current frames, by and-or (1) and pipeline (2); reset when frames change. */
  private sharedContexts: (ConditionalContext[] | undefined)[] = [];
  private readonly lineStarts: number[];
  /** The line of the last directive found (see lineOfKeyword). */
  private lastLine = 0;
  /** Heredoc delimiters waiting for the end of the current line. */
  private pendingHeredocs: { delimiter: string; stripTabs: boolean }[] = [];

  // The command being assembled.
  /** The word readWord just read: from wordStart to pos. */
  private wordStart = 0;
  private wordValue = '';
  private wordQuoted = false;
  private wordExpands = false;
  /** The command's words, 0..wordCount, as columns reused by every command (entries past
   * wordCount are stale): an object and a fresh list per word and line cost most of the parse. */
  private readonly wordStarts: number[] = [];
  private readonly wordEnds: number[] = [];
  private readonly wordValues: string[] = [];
  private readonly wordFlags: number[] = [];
  private wordCount = 0;
  private skipRest = false;
  private expectHeredocWord: { stripTabs: boolean } | undefined;
  private expectRedirectTarget = false;
  private andOr = false;
  private afterPipe = false;
  private pendingFunction: ShellFunction | undefined;
  /** Inside `case ... in`, expecting a pattern list that ends with ')'. */
  private casePattern = false;

  constructor(private readonly text: string) {
    this.lineStarts = lineStartsOf(text);
  }

  parse(): ParsedProfile {
    const text = this.text;
    for (;;) {
      const kind = this.next();
      if (kind === TokenKind.End) break;
      if (kind === TokenKind.Word) {
        this.readWord();
        this.onWord();
      } else this.onOperator(this.operator, this.operatorStart);
    }
    this.endCommand(undefined);
    for (const frame of this.frames) if (frame.fn) frame.fn.span.end = text.length;
    return { directives: this.directives, functions: this.functions, lineStarts: this.lineStarts, length: text.length };
  }

  // ---- tokens -------------------------------------------------------------------------------

  private next(): TokenKind {
    const text = this.text;
    const length = text.length;
    while (this.pos < length) {
      const code = text.charCodeAt(this.pos);
      if (code === Ch.Space || code === Ch.Tab || code === Ch.Cr) {
        this.pos++;
      } else if (code === Ch.Backslash && text.charCodeAt(this.pos + 1) === Ch.Lf) {
        this.pos += 2; // line continuation between words
      } else if (
        code === Ch.Backslash &&
        text.charCodeAt(this.pos + 1) === Ch.Cr &&
        text.charCodeAt(this.pos + 2) === Ch.Lf
      ) {
        this.pos += 3;
      } else if (code === Ch.Hash) {
        const newline = text.indexOf('\n', this.pos);
        this.pos = newline === -1 ? length : newline;
      } else if (code === Ch.Lf) {
        const start = this.pos++;
        if (this.pendingHeredocs.length > 0) this.skipHeredocBodies();
        this.operator = '\n';
        this.operatorStart = start;
        return TokenKind.Operator;
      } else {
        const op = this.operatorAt(this.pos);
        if (op) {
          const start = this.pos;
          this.pos += op.length;
          this.operator = op;
          this.operatorStart = start;
          return TokenKind.Operator;
        }
        return TokenKind.Word; // the caller reads it with readWord()
      }
    }
    return TokenKind.End;
  }

  private operatorAt(at: number): Operator | undefined {
    const text = this.text;
    const code = text.charCodeAt(at);
    const following = text.charCodeAt(at + 1);
    switch (code) {
      case Ch.Semi:
        return following === Ch.Semi ? ';;' : ';';
      case Ch.Amp:
        return following === Ch.Amp ? '&&' : '&';
      case Ch.Pipe:
        return following === Ch.Pipe ? '||' : '|';
      case Ch.LParen:
        return '(';
      case Ch.RParen:
        return ')';
      case Ch.Lt:
        if (following === Ch.Lt) return text.charCodeAt(at + 2) === 45 /* - */ ? '<<-' : '<<';
        return following === Ch.Amp ? '<&' : '<';
      case Ch.Gt:
        if (following === Ch.Gt) return '>>';
        return following === Ch.Amp ? '>&' : '>';
      default:
        return undefined;
    }
  }

  /** Reads one shell word starting at `pos` into the word* fields (no object per word); stops at
   * blanks and operators outside quotes. */
  private readWord(): void {
    const text = this.text;
    const length = text.length;
    const start = this.pos;
    // Most words are plain: their value is a slice. Quotes and escapes switch to collecting pieces.
    let pieces: string[] | undefined;
    let pieceStart = this.pos;
    let quoted = false;
    let expands = false;
    while (this.pos < length) {
      const code = text.charCodeAt(this.pos);
      const kind = code < 128 ? wordCharKinds[code]! : WordChar.Plain;
      if (kind === WordChar.Plain) {
        this.pos++;
        continue;
      }
      if (kind === WordChar.Break) break;
      if (kind === WordChar.Quote) {
        pieces ??= [];
        if (this.pos > pieceStart) pieces.push(text.slice(pieceStart, this.pos));
        quoted = true;
        if (code === Ch.Backslash) {
          if (text.charCodeAt(this.pos + 1) !== Ch.Lf) pieces.push(text.charAt(this.pos + 1));
          this.pos = Math.min(this.pos + 2, length);
        } else if (code === Ch.Apos) {
          const close = text.indexOf("'", this.pos + 1);
          pieces.push(text.slice(this.pos + 1, close === -1 ? length : close));
          this.pos = close === -1 ? length : close + 1;
        } else {
          const contentStart = this.pos + 1;
          const inner = this.skipDoubleQuoted(contentStart);
          if (inner.expands) expands = true;
          pieces.push(unescapeDoubleQuoted(text.slice(contentStart, inner.end)));
          this.pos = inner.end < length ? inner.end + 1 : length;
        }
        pieceStart = this.pos;
      } else {
        // '$' or '`'
        const end = this.skipExpansion(this.pos);
        if (end > this.pos + 1 || code === Ch.Backtick) expands = true;
        this.pos = Math.max(end, this.pos + 1);
      }
    }
    let value: string;
    if (pieces === undefined) {
      value = text.slice(start, this.pos);
    } else {
      if (this.pos > pieceStart) pieces.push(text.slice(pieceStart, this.pos));
      value = pieces.join('');
    }
    this.wordStart = start;
    this.wordValue = value;
    this.wordQuoted = quoted;
    this.wordExpands = expands;
  }

  /** From just inside an opening '"' to the offset of the closing '"' (or the end). */
  private skipDoubleQuoted(from: number): { end: number; expands: boolean } {
    const text = this.text;
    const length = text.length;
    let at = from;
    let expands = false;
    while (at < length) {
      const code = text.charCodeAt(at);
      if (code === Ch.Quote) return { end: at, expands };
      if (code === Ch.Backslash) at += 2;
      else if (code === Ch.Dollar || code === Ch.Backtick) {
        const end = this.skipExpansion(at);
        if (end > at + 1 || code === Ch.Backtick) expands = true;
        at = Math.max(end, at + 1);
      } else at++;
    }
    return { end: length, expands };
  }

  /** Skips `$name`, `${...}`, `$(...)`, `$((...))` or a backtick command; returns the end offset. */
  private skipExpansion(at: number): number {
    if (this.nesting >= maxNesting) return at + 1; // the enclosing loop counts the brackets
    this.nesting++;
    try {
      return this.skipExpansionAt(at);
    } finally {
      this.nesting--;
    }
  }

  private skipExpansionAt(at: number): number {
    const text = this.text;
    const length = text.length;
    if (text.charCodeAt(at) === Ch.Backtick) {
      let index = at + 1;
      while (index < length) {
        const code = text.charCodeAt(index);
        if (code === Ch.Backslash) index += 2;
        else if (code === Ch.Backtick) return index + 1;
        else index++;
      }
      return length;
    }
    const following = text.charCodeAt(at + 1);
    if (following === Ch.LParen) return this.skipBalanced(at + 1, Ch.LParen, Ch.RParen);
    if (following === Ch.LBrace) return this.skipBalanced(at + 1, Ch.LBrace, Ch.RBrace);
    let index = at + 1;
    // Special parameters: $1, $@, $#, $?, $$, $!, $*, $-
    if (index < length && isSpecialParameter(text.charCodeAt(index))) return index + 1;
    while (index < length && isNameChar(text.charCodeAt(index))) index++;
    return index;
  }

  /** Skips a bracketed region starting at `open`, honouring nested brackets and quotes. */
  private skipBalanced(open: number, opener: number, closer: number): number {
    const text = this.text;
    const length = text.length;
    let depth = 0;
    let index = open;
    while (index < length) {
      const code = text.charCodeAt(index);
      if (code === opener) {
        depth++;
        index++;
      } else if (code === closer) {
        depth--;
        index++;
        if (depth === 0) return index;
      } else if (code === Ch.Backslash) {
        index += 2;
      } else if (code === Ch.Apos) {
        const close = text.indexOf("'", index + 1);
        index = close === -1 ? length : close + 1;
      } else if (code === Ch.Quote) {
        const inner = this.skipDoubleQuoted(index + 1);
        index = inner.end + 1;
      } else if (
        code === Ch.Backtick ||
        (code === Ch.Dollar && (text.charCodeAt(index + 1) === Ch.LParen || text.charCodeAt(index + 1) === Ch.LBrace))
      ) {
        index = Math.max(this.skipExpansion(index), index + 1);
      } else {
        index++;
      }
    }
    return length;
  }

  /** Called just after a newline when heredocs are pending: skips their bodies. */
  private skipHeredocBodies(): void {
    const text = this.text;
    for (const heredoc of this.pendingHeredocs) {
      while (this.pos < text.length) {
        const newline = text.indexOf('\n', this.pos);
        const lineEnd = newline === -1 ? text.length : newline;
        let line = text.slice(this.pos, lineEnd);
        if (line.endsWith('\r')) line = line.slice(0, -1);
        if (heredoc.stripTabs) line = line.replace(/^\t+/, '');
        this.pos = newline === -1 ? text.length : newline + 1;
        if (line === heredoc.delimiter) break;
      }
    }
    this.pendingHeredocs = [];
  }

  // ---- commands -----------------------------------------------------------------------------

  /** The word just read (wordStart..pos). */
  private onWord(): void {
    const value = this.wordValue;
    const quoted = this.wordQuoted;
    if (this.expectHeredocWord) {
      this.pendingHeredocs.push({ delimiter: value, stripTabs: this.expectHeredocWord.stripTabs });
      this.expectHeredocWord = undefined;
      return;
    }
    if (this.expectRedirectTarget) {
      this.expectRedirectTarget = false;
      return;
    }
    if (this.skipRest) {
      if (this.frames.at(-1)?.kind === 'case' && value === 'in' && !quoted) {
        // `case WORD in`: what follows are pattern lists.
        this.skipRest = false;
        this.casePattern = true;
      }
      return;
    }
    if (this.casePattern) {
      if (value === 'esac' && !quoted) {
        this.casePattern = false;
        this.closeFrame(['case'], this.pos);
      }
      return; // pattern words until ')'
    }
    // Reserved words are at most 8 characters ('function'): longer words skip the lookups.
    if (this.wordCount === 0 && !quoted && !this.wordExpands && value.length <= 8) {
      const opener = reservedOpeners.get(value);
      if (opener) {
        this.pushFrame({ kind: opener });
        if (value === 'for' || value === 'case') this.skipRest = true;
        return;
      }
      const closer = reservedClosers.get(value);
      if (closer) {
        this.closeFrame(closer, this.pos);
        return;
      }
      if (reservedContinuers.has(value)) return;
      if (value === '{') {
        const fn = this.pendingFunction;
        this.pendingFunction = undefined;
        this.pushFrame(fn ? { kind: 'function', fn } : { kind: 'group' });
        return;
      }
      if (value === 'function') return; // ksh-style `function name {`; the name follows
    }
    const index = this.wordCount++;
    this.wordStarts[index] = this.wordStart;
    this.wordEnds[index] = this.pos;
    this.wordValues[index] = value;
    this.wordFlags[index] = (quoted ? quotedFlag : 0) | (this.wordExpands ? expandsFlag : 0);
  }

  /** Word `index` of the current command as an object (only for the few words a directive keeps). */
  private wordAt(index: number): ShellWord {
    const flags = this.wordFlags[index]!;
    return {
      start: this.wordStarts[index]!,
      end: this.wordEnds[index]!,
      value: this.wordValues[index]!,
      quoted: (flags & quotedFlag) !== 0,
      expands: (flags & expandsFlag) !== 0,
    };
  }

  private wordsFrom(first: number, count: number): ShellWord[] {
    const words: ShellWord[] = [];
    for (let index = first; index < count; index++) words.push(this.wordAt(index));
    return words;
  }

  private pushFrame(frame: Frame): void {
    this.frames.push(frame);
    this.sharedContexts = [];
  }

  private closeFrame(kinds: Frame['kind'][], end: number): void {
    for (let index = this.frames.length - 1; index >= 0; index--) {
      if (kinds.includes(this.frames[index]!.kind)) {
        const [closed] = this.frames.splice(index);
        this.sharedContexts = [];
        if (closed?.fn) closed.fn.span.end = end;
        return;
      }
    }
    // A closer without its opener: tolerated, nothing to close.
  }

  private onOperator(op: Operator, start: number): void {
    switch (op) {
      case '<<':
      case '<<-':
        this.expectHeredocWord = { stripTabs: op === '<<-' };
        return;
      case '<':
      case '>':
      case '>>':
      case '>&':
      case '<&': {
        // `2>/dev/null`: the digits just before the operator name a file descriptor, not a word.
        const last = this.wordCount - 1;
        if (
          last >= 0 &&
          this.wordEnds[last] === start &&
          (this.wordFlags[last]! & quotedFlag) === 0 &&
          /^\d+$/.test(this.wordValues[last]!)
        )
          this.wordCount--;
        this.expectRedirectTarget = true;
        return;
      }
      case '(':
        if (
          this.wordCount === 1 &&
          !this.skipRest &&
          this.text.charCodeAt(this.nextNonBlank(start + 1)) === Ch.RParen
        ) {
          // `name() {`: a function definition.
          const nameWord = this.wordAt(0);
          this.wordCount = 0;
          this.pos = this.nextNonBlank(start + 1) + 1;
          const fn: ShellFunction = {
            name: nameWord.value,
            nameSpan: { start: nameWord.start, end: nameWord.end },
            span: { start: nameWord.start, end: nameWord.end },
          };
          this.functions.push(fn);
          this.pendingFunction = fn;
          return;
        }
        if (this.wordCount === 0 && !this.casePattern) this.pushFrame({ kind: 'subshell' });
        return;
      case ')':
        if (this.casePattern) {
          this.casePattern = false;
          return;
        }
        this.endCommand(op);
        this.closeFrame(['subshell'], start + 1);
        return;
      case ';;':
        this.endCommand(op);
        if (this.frames.some((frame) => frame.kind === 'case')) this.casePattern = true;
        return;
      default:
        this.endCommand(op);
    }
  }

  private nextNonBlank(from: number): number {
    let index = from;
    while (
      index < this.text.length &&
      (this.text.charCodeAt(index) === Ch.Space || this.text.charCodeAt(index) === Ch.Tab)
    )
      index++;
    return index;
  }

  private endCommand(terminator: Operator | undefined): void {
    const count = this.wordCount;
    this.wordCount = 0; // toSet and toImport read the columns before the next word overwrites them
    this.skipRest =
      terminator === undefined || terminator === '\n' || terminator === ';' || terminator === '&'
        ? false
        : this.skipRest;
    const inPipeline = this.afterPipe || terminator === '|';
    const inAndOr = this.andOr;
    if (terminator === '&&' || terminator === '||') this.andOr = true;
    else if (terminator !== '|') this.andOr = false;
    this.afterPipe = terminator === '|';
    if (count === 0) return;
    if (this.wordFlags[0] !== 0) return; // quoted or expanding: not a directive keyword
    const keywordText = this.wordValues[0];
    if (keywordText !== 'onload_set' && keywordText !== 'onload_import') return;
    let contexts = noContexts; // shared by every unconditional directive: most of a profile
    if (this.frames.length > 0 || inAndOr || inPipeline) {
      // Shared (never mutated) by the directives of one block, like noContexts outside blocks.
      const key = (inAndOr ? 1 : 0) | (inPipeline ? 2 : 0);
      let shared = this.sharedContexts[key];
      if (!shared) {
        shared = [];
        for (const frame of this.frames) if (frame.kind !== 'group') shared.push(frame.kind);
        if (inAndOr) shared.push('and-or');
        if (inPipeline) shared.push('pipeline');
        this.sharedContexts[key] = shared;
      }
      contexts = shared;
    }
    const start = this.wordStarts[0]!;
    const end = this.wordEnds[count - 1]!;
    const line = this.lineOfKeyword(start);
    const command: Span = { start, end };
    const keyword: Span = { start, end: this.wordEnds[0]! };
    const ownsLine = this.onlyBlanksBefore(start) && this.onlyCommentAfter(end, terminator);
    if (keywordText === 'onload_set')
      this.directives.push(this.toSet(command, keyword, line, contexts, ownsLine, count));
    else this.directives.push(this.toImport(command, keyword, line, contexts, ownsLine, count));
  }

  /** Word 0 is the keyword; the arguments follow it, up to `count`. */
  private toSet(
    command: Span,
    keyword: Span,
    line: number,
    contexts: ConditionalContext[],
    ownsLine: boolean,
    count: number,
  ): SetDirective {
    const argumentCount = count - 1;
    if (argumentCount === 0) {
      const afterKeyword = { start: keyword.end, end: keyword.end };
      return setDirective(
        command,
        keyword,
        line,
        contexts,
        ownsLine,
        '',
        afterKeyword,
        false,
        'words',
        '',
        afterKeyword,
        false,
        true,
        undefined,
        noWords,
      );
    }
    if (argumentCount >= 2) {
      const value = this.wordValues[2]!;
      const valueDynamic = (this.wordFlags[2]! & expandsFlag) !== 0;
      return setDirective(
        command,
        keyword,
        line,
        contexts,
        ownsLine,
        this.wordValues[1]!,
        { start: this.wordStarts[1]!, end: this.wordEnds[1]! },
        (this.wordFlags[1]! & expandsFlag) !== 0,
        'words',
        value,
        { start: this.wordStarts[2]!, end: this.wordEnds[2]! },
        valueDynamic,
        !valueDynamic && value === '',
        undefined,
        argumentCount > 2 ? this.wordsFrom(3, count) : noWords,
      );
    }
    const nameWord = this.wordAt(1);
    const text = this.text;
    // One argument: the launcher splits it with `cut -d=`: field 1 is the name, field 2 the value.
    const equals = nameWord.value.indexOf('=');
    if (equals === -1) {
      const end = { start: nameWord.end, end: nameWord.end };
      // `onload_set "$pair"`: the launcher splits the expanded word at '=', so a value may be in it.
      return setDirective(
        command,
        keyword,
        line,
        contexts,
        ownsLine,
        nameWord.value,
        { start: nameWord.start, end: nameWord.end },
        nameWord.expands,
        'words',
        '',
        end,
        nameWord.expands,
        !nameWord.expands,
        undefined,
        noWords,
      );
    }
    const raw = text.slice(nameWord.start, nameWord.end);
    const name = nameWord.value.slice(0, equals);
    const written = nameWord.value.slice(equals + 1);
    const secondEquals = written.indexOf('=');
    const value = secondEquals === -1 ? written : written.slice(0, secondEquals);
    // Map the '=' back into the raw text (quotes may sit around parts of the word).
    const rawEquals = raw.indexOf('=');
    const valueStart = nameWord.start + (rawEquals === -1 ? raw.length : rawEquals + 1);
    const nameEnd = nameWord.start + (rawEquals === -1 ? raw.length : rawEquals);
    const nameStart = nameWord.start + (raw.startsWith('"') || raw.startsWith("'") ? 1 : 0);
    const valueSpan = { start: valueStart, end: nameWord.end };
    // Which side of the '=' holds the expansion: `EF_POLL_USEC=$x` has a known name, `${P}_SPIN=1` does not.
    const nameDynamic = nameWord.expands && hasExpansion(raw.slice(0, rawEquals === -1 ? raw.length : rawEquals));
    const valueDynamic = nameWord.expands && (rawEquals === -1 || hasExpansion(raw.slice(rawEquals + 1)));
    return setDirective(
      command,
      keyword,
      line,
      contexts,
      ownsLine,
      name,
      { start: nameStart, end: Math.max(nameStart, nameEnd) },
      nameDynamic,
      'equals',
      value,
      valueSpan,
      valueDynamic,
      !valueDynamic && value === '',
      secondEquals === -1 ? undefined : { written, span: valueSpan },
      noWords,
    );
  }

  /** Word 0 is the keyword; the arguments follow it, up to `count`. */
  private toImport(
    command: Span,
    keyword: Span,
    line: number,
    contexts: ConditionalContext[],
    ownsLine: boolean,
    count: number,
  ): ImportDirective {
    const conditional = contexts.length > 0;
    if (count === 1) {
      const at = { start: keyword.end, end: keyword.end };
      return {
        command,
        keyword,
        line,
        contexts,
        conditional,
        ownsLine,
        kind: 'import',
        name: '',
        nameSpan: at,
        nameDynamic: false,
        args: [],
      };
    }
    const nameWord = this.wordAt(1);
    return {
      command,
      keyword,
      line,
      contexts,
      conditional,
      ownsLine,
      kind: 'import',
      name: nameWord.value,
      nameSpan: { start: nameWord.start, end: nameWord.end },
      nameDynamic: nameWord.expands,
      args: this.wordsFrom(2, count),
    };
  }

  /** lineOf(lineStarts, offset), walking on from the previous directive's line: directives come
   * in text order, so the whole parse visits each line start once instead of a search per directive. */
  private lineOfKeyword(offset: number): number {
    const starts = this.lineStarts;
    let line = this.lastLine;
    if (starts[line]! > offset) line = lineOf(starts, offset);
    else while (line + 1 < starts.length && starts[line + 1]! <= offset) line++;
    this.lastLine = line;
    return line;
  }

  private onlyBlanksBefore(offset: number): boolean {
    for (let index = offset - 1; index >= 0; index--) {
      const code = this.text.charCodeAt(index);
      if (code === Ch.Lf) return true;
      if (code !== Ch.Space && code !== Ch.Tab) return false;
    }
    return true;
  }

  /** Nothing but blanks, a ';' or a comment follows the command on its last line. */
  private onlyCommentAfter(offset: number, terminator: Operator | undefined): boolean {
    if (terminator !== undefined && terminator !== '\n' && terminator !== ';') return false;
    for (let index = offset; index < this.text.length; index++) {
      const code = this.text.charCodeAt(index);
      if (code === Ch.Lf || code === Ch.Hash || code === Ch.Cr) return true;
      if (code !== Ch.Space && code !== Ch.Tab && code !== Ch.Semi) return false;
    }
    return true;
  }
}

function isNameChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** $0-$9, $@, $#, $?, $$, $!, $*, $- */
function isSpecialParameter(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    code === 64 ||
    code === 35 ||
    code === 63 ||
    code === 36 ||
    code === 33 ||
    code === 42 ||
    code === 45
  );
}

function unescapeDoubleQuoted(raw: string): string {
  return raw.indexOf('\\') === -1
    ? raw
    : raw.replace(/\\([$`"\\\n])/g, (_match, escaped: string) => (escaped === '\n' ? '' : escaped));
}

function hasExpansion(raw: string): boolean {
  return /\$[{(A-Za-z_0-9@#?$!*-]|`/.test(raw);
}

function setDirective(
  command: Span,
  keyword: Span,
  line: number,
  contexts: ConditionalContext[],
  ownsLine: boolean,
  name: string,
  nameSpan: Span,
  nameDynamic: boolean,
  form: SetDirective['form'],
  value: string,
  valueSpan: Span,
  valueDynamic: boolean,
  valueMissing: boolean,
  cutFrom: SetDirective['cutFrom'],
  extraWords: ShellWord[],
): SetDirective {
  // One literal with every field, in one order: profiles can hold 100,000 directives, all of one shape.
  return {
    kind: 'set',
    command,
    keyword,
    line,
    contexts,
    conditional: contexts.length > 0,
    ownsLine,
    name,
    nameSpan,
    nameDynamic,
    form,
    value,
    valueSpan,
    valueDynamic,
    valueMissing,
    cutFrom,
    extraWords,
  };
}
