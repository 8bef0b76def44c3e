/**
 * The native messaging protocol's version and the limits both sides enforce. The extension and
 * the host import these same constants, so a limit is stated once.
 */

/**
 * The version this build speaks. Bump it for any change an older peer would misread.
 * 2: `replay-result` requests are `RequestRecord`s (src/run): `kind` became `resourceType`, and
 * "not measured" is `null` rather than an absent field; `replay-summary` entries carry `requests`.
 * 3: `forget` names what it forgets, `origin` or `all: true` (a bare `forget` no longer means
 * everything); a frame whose JSON repeats a key is refused (`E_DUPLICATE_KEY`).
 */
export const PROTOCOL_VERSION = 3;

/** Versions a `hello` may ask for. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = [3];

/**
 * Host → browser messages must be strictly smaller than this many bytes of JSON (Chrome and
 * Firefox refuse a native message of more than 1 MiB). Larger replies travel as `chunk` messages.
 */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * Browser → host frames longer than this are refused unread. Chrome allows up to 4 GiB; nothing
 * this protocol carries comes near 64 MiB, so a longer length prefix is a broken or hostile peer.
 */
export const MAX_INBOUND_FRAME_BYTES = 64 * 1024 * 1024;

/** Requests one `schedule` may list. A page with more is refused whole (`E_TOO_MANY_REQUESTS`). */
export const MAX_REQUESTS_PER_SCHEDULE = 2000;

/** Characters of one URL (Chrome's omnibox and most servers stop well before this). */
export const MAX_URL_LENGTH = 8192;

/** Characters of a request id given as a string. */
export const MAX_ID_LENGTH = 256;

/** Characters of a `pageId`, `resourceType` or other short label. */
export const MAX_LABEL_LENGTH = 256;

/** `schedule` requests running at once; one more is refused with `E_BUSY`. */
export const MAX_CONCURRENT_SCHEDULES = 8;

/** Parts one chunked message may have (`MAX_CHUNKS × 1 MiB` bounds what a reassembler buffers). */
export const MAX_CHUNKS = 256;

/** Resources one `discovered` reply lists at most (the first found). */
export const MAX_DISCOVERED = 2000;

/** Connections one `handshakes` request may carry (a page's Resource Timing buffer holds 250 entries unless it asks for more). */
export const MAX_BROWSER_HANDSHAKES = 2000;
