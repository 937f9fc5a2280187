// A value made on first use and kept: what is not needed is never made (nor its cost paid).

/** Returns a function that makes the value on its first call and returns that same value ever after. */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
