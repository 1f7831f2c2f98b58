/**
 * The few text rules every reason and headline follows: a reason reads as a sentence (capital,
 * final period), and embedded in another sentence it loses its period and, when it opens with
 * an ordinary capitalised word, its capital ("TLS", "SD-JWT" and DIDs stay as written).
 */

/** Upper-cases the first character. */
export function capitalise(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** Lower-cases an ordinary capitalised first word ("The" → "the"; "TLS", "SD-JWT" unchanged). */
export function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? `${text.charAt(0).toLowerCase()}${text.slice(1)}` : text;
}

/** Without its final period(s). */
export function withoutPeriod(text: string): string {
  return text.replace(/\.+$/, '');
}

/** As a sentence: capitalised, ending with a period unless it ends with . ! or ?. */
export function sentence(text: string): string {
  const body = capitalise(text);
  return /[.!?]$/.test(body) ? body : `${body}.`;
}

/** A sentence embedded in another: trimmed, no final period, an ordinary first word lower-cased. */
export function clause(text: string): string {
  return lowerFirst(withoutPeriod(text.trim()));
}

/** A count with its noun: "1 tool", "3 tools", "2 entries" (with `many`). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
