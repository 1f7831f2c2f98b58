/**
 * Delivery bounds that the command line's help states as well as the sender applies: a module of
 * constants only, so that `svc --help` reads them without loading the sender.
 */

/**
 * The longest wait a receiver's Retry-After can ask for, seconds (an hour): a larger value (or a
 * date further out) is taken as this. The next attempt is never sooner than the schedule
 * (retryDelaySeconds) either, and the attempts stay five in all.
 */
export const RETRY_AFTER_CAP_SECONDS = 3600;
