/**
 * The few text rules every reason and headline follows: a reason reads as a sentence (capital,
 * final period), and embedded in another sentence it loses its period and, when it opens with
 * an ordinary capitalised word, its capital ("TLS", "SD-JWT" and DIDs stay as written). A count
 * goes through plural() ("1 observation", never "observation(s)"), and a label takes the article
 * it is read aloud with (withArticle: "an EdDSA", "a P-256").
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

/** At most `max` characters of `text`, an ellipsis marking the cut (what a reason quotes of its input). */
export function truncate(text: string, max = 64): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A count with its noun: "1 tool", "3 tools", "2 entries" (with `many`). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * A word with its indefinite article, as the word is read aloud. A label that opens with a
 * spelled-out capital (an acronym or a capital before a digit or hyphen: "ES256", "RSA",
 * "X25519", "P-256") goes by the letter's name — "an" before A E F H I L M N O R S X; any other
 * word by its first letter: "an Ed25519", "an EdDSA", "an object", "a secp256k1", "a Multikey".
 * A number goes by how it is said: "an 8-bit", "an 11", "a 3".
 */
export function withArticle(word: string): string {
  return `${startsWithVowelSound(word) ? 'an' : 'a'} ${word}`;
}

function startsWithVowelSound(word: string): boolean {
  if (/^[0-9]/.test(word)) return /^(8|1[18](?![0-9])|1[18][0-9]{3}(?![0-9]))/.test(word);
  if (/^[A-Z](?![a-z])/.test(word)) return /^[AEFHILMNORSX]/.test(word);
  return /^[aeiou]/i.test(word);
}
