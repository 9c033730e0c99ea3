/** An object as the API server returns it, read loosely: tests pick the fields they assert on. */
// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from the API server
export type Obj = Record<string, any>;
