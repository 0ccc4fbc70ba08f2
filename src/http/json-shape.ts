// The shape of a JSON text, measured before it is parsed: how deeply it nests and how many array
// elements and object members it holds. JSON.parse and the schemas after it work recursively and
// build every value, so a text of a few MiB can hold millions of values or nest millions deep; one
// linear pass over the characters, keeping two counters and no values, finds such a text first.

export interface JsonShapeLimits {
  /** The deepest nesting of arrays and objects accepted (the outermost one is depth 1). */
  maxDepth: number;
  /** The most array elements and object members, all levels together. */
  maxElements: number;
}

/** What the text exceeds, said for a client; undefined when it keeps within `limits` (or is not JSON at all). */
export function exceededShape(text: string, limits: JsonShapeLimits): string | undefined {
  let depth = 0;
  let elements = 0;
  // Just after `[` or `{`: the next character that is not white space starts a first element, or closes.
  let opened = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 0x20 || char === 0x0a || char === 0x0d || char === 0x09) continue;
    if (opened) {
      opened = false;
      if (char !== 0x5d && char !== 0x7d && ++elements > limits.maxElements) return tooMany(limits);
    }
    if (char === 0x22) {
      i = endOfString(text, i);
    } else if (char === 0x5b || char === 0x7b) {
      if (++depth > limits.maxDepth) {
        return `The request body nests arrays and objects more than ${limits.maxDepth} deep; this operation accepts at most ${limits.maxDepth}.`;
      }
      opened = true;
    } else if (char === 0x5d || char === 0x7d) {
      depth--;
    } else if (char === 0x2c && ++elements > limits.maxElements) {
      return tooMany(limits);
    }
  }
  return undefined;
}

const tooMany = (limits: JsonShapeLimits) =>
  `The request body holds more than ${limits.maxElements} array elements and object members; this operation accepts at most ${limits.maxElements}.`;

/** The index of the quote that closes the string opened at `start` (the text's end when none does). */
function endOfString(text: string, start: number): number {
  for (let quote = text.indexOf('"', start + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    // Escaped when an odd number of backslashes stands right before it.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return text.length;
}
