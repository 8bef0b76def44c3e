// har-validator ships no types; the one call the tests make (HAR 1.2 schema validation).
declare module 'har-validator' {
  /** Resolves (truthy) for a valid HAR; rejects with a HARError listing the schema errors. */
  export function har(data: unknown): Promise<unknown>;
}
