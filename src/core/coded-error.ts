/**
 * The one error base of getlist (undici's `lib/core/errors.js` is the model): every layer's error
 * class extends {@link CodedError} and carries a stable `code` (`E_INVALID_URL`, `E_STORE_LOCKED`…)
 * that tests, the protocol, the CLI and users match on; `message` says what was wrong in words a
 * user can act on. Codes never change once published; messages may.
 *
 * Callers match on `code` with {@link isCodedError} / {@link hasCode}, never on `instanceof`: an
 * error may come from another bundle (the extension's pages, the CLI's launcher) or arrive as a
 * plain `{code, message}` object, and then no class identity survives.
 */
export class CodedError<C extends string = string> extends Error {
  override readonly name: string = 'CodedError';

  constructor(
    readonly code: C,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Anything that looks like a coded error: an object with a non-empty string `code` and a string `message`. */
export interface CodedErrorLike {
  code: string;
  message: string;
}

/**
 * Whether `x` carries a stable code: any {@link CodedError}, a Node or undici error with a string
 * `code` (`ECONNREFUSED`, `UND_ERR_SOCKET`), or a plain `{code, message}` object from another bundle.
 * A DOMException's numeric `code` does not count.
 */
export function isCodedError(x: unknown): x is CodedErrorLike {
  if (typeof x !== 'object' || x === null) return false;
  const { code, message } = x as { code?: unknown; message?: unknown };
  return typeof code === 'string' && code !== '' && typeof message === 'string';
}

/** Whether `x` is a coded error with this code (or one of these codes). */
export function hasCode<C extends string>(x: unknown, code: C | readonly C[]): x is CodedErrorLike & { code: C } {
  if (!isCodedError(x)) return false;
  return typeof code === 'string' ? x.code === code : (code as readonly string[]).includes(x.code);
}
