/**
 * The promise's value if it fulfils within `ms`, else undefined (the promise keeps running; nothing is cancelled).
 * A rejection within the time is passed on. The one time limit on a wait; the timer never outlives it.
 */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits for the promise to settle, fulfilled or rejected, at most `ms`; never throws. */
export async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  await within(
    promise.then(
      () => undefined,
      () => undefined,
    ),
    ms,
  );
}
