// IP addresses compared as addresses, never as text (REAL-LAB H5). One IPv6 address has many
// spellings: the plan's `2001:db8::a`, `2001:db8:0:0:0:0:0:a`, upper case, brackets, and
// /proc/net/tcp6's 32 hex digits in host byte order per 32-bit word; an IPv4 peer of a dual-stack
// socket reads `::ffff:10.0.0.1`. Everything the engine compares goes through `sameAddress`, and
// what it prints or sends to a host in `canonicalAddress` (RFC 5952, as glibc's inet_ntop and
// iproute2 print it). Pure.

/** 16 bytes (IPv4 as IPv4-mapped IPv6), or undefined when `text` is no IP address (a host name). */
export function parseIp(text: string): Uint8Array | undefined {
  let value = text.trim();
  if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
  value = value.replace(/%[A-Za-z0-9_.-]+$/, ''); // a zone (fe80::1%eth0) names the link, not the address
  const v4 = parseIpv4(value);
  if (v4) return Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4]);
  if (!/^[0-9A-Fa-f:.]+$/.test(value) || !value.includes(':')) return undefined;
  const halves = value.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (const [index, piece] of pieces.entries()) {
      if (index === pieces.length - 1 && piece.includes('.')) {
        const tail = parseIpv4(piece);
        if (!tail) return undefined;
        out.push((tail[0] << 8) | tail[1], (tail[2] << 8) | tail[3]);
      } else {
        if (!/^[0-9A-Fa-f]{1,4}$/.test(piece)) return undefined;
        out.push(Number.parseInt(piece, 16));
      }
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...Array<number>(Math.max(0, missing)).fill(0), ...tail];
  return Uint8Array.from(all.flatMap((group) => [group >> 8, group & 0xff]));
}

function parseIpv4(text: string): number[] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!match) return undefined;
  const bytes = match.slice(1).map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes : undefined;
}

function isMappedIpv4(bytes: Uint8Array): boolean {
  return bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
}

/** IPv4 dotted (also for IPv4-mapped addresses), IPv6 in RFC 5952's form (lower case, longest zero run as `::`). */
export function formatIp(bytes: Uint8Array): string {
  if (isMappedIpv4(bytes)) return Array.from(bytes.slice(12)).join('.');
  const groups = Array.from({ length: 8 }, (_, index) => (bytes[2 * index] << 8) | bytes[2 * index + 1]);
  let best = { start: -1, length: 0 };
  for (let index = 0; index < 8;) {
    if (groups[index] !== 0) {
      index++;
      continue;
    }
    let end = index;
    while (end < 8 && groups[end] === 0) end++;
    if (end - index > best.length) best = { start: index, length: end - index };
    index = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.length < 2) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/** The address in its canonical text, or `text` itself (trimmed) when it is no IP address. */
export function canonicalAddress(text: string): string {
  const bytes = parseIp(text);
  return bytes ? formatIp(bytes) : text.trim();
}

/** Whether two texts name the same IP address (host names: the same name, ignoring case). */
export function sameAddress(a: string, b: string): boolean {
  const left = parseIp(a);
  const right = parseIp(b);
  if (!left || !right) return !left && !right && a.trim().toLowerCase() === b.trim().toLowerCase();
  return left.every((byte, index) => byte === right[index]);
}

/** `/proc/net/tcp{,6}` address `0100007F:2BCA` → `127.0.0.1:11210`; IPv6 as `[2001:db8::a]:11210`. */
export function decodeProcAddress(hex: string): string {
  const [address, port] = hex.split(':');
  const portNumber = Number.parseInt(port ?? '0', 16);
  const words = address.length === 8 ? [address] : (address.match(/.{8}/g) ?? []);
  // each 32-bit word is in host (little-endian) byte order
  const bytes = words.flatMap((word) =>
    word
      .match(/../g)!
      .map((byte) => Number.parseInt(byte, 16))
      .reverse(),
  );
  const full =
    bytes.length === 4 ? Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...bytes]) : Uint8Array.from(bytes);
  const text = formatIp(full);
  return `${text.includes(':') ? `[${text}]` : text}:${portNumber}`;
}

/** `ADDRESS:PORT` or `[ADDRESS]:PORT` → ADDRESS (brackets removed). */
export function hostOfEndpoint(endpoint: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(endpoint);
  if (bracketed) return bracketed[1];
  return (endpoint.match(/:/g) ?? []).length === 1 ? endpoint.replace(/:\d+$/, '') : endpoint;
}
