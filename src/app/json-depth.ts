/** API.md §2: JSON nested deeper than this is a 400, refused before anything walks the body. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests arrays or objects deeper than `max`, found by one loop over the text (no
 * recursion, so 10k levels cost 10k steps and no stack). Brackets inside strings do not count.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      if (depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}
