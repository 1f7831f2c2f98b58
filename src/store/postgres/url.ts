/** PostgreSQL URLs without loading the driver: which targets are PostgreSQL, and how to name one in a message. */

/** True for a `postgres://` or `postgresql://` URL (anything else is a SQLite path). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** The URL with any password replaced, for messages and logs (a password never leaves the process). */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return '(an unreadable database URL)';
  }
}
