import { settledWithin, within } from '../../../src/application/timing/within';

describe('within', () => {
  it('gives the value of a promise that fulfils in time', async () => {
    await expect(within(Promise.resolve(42), 1000)).resolves.toBe(42);
  });

  it('gives undefined when the time runs out first', async () => {
    const never = new Promise<number>(() => undefined);
    await expect(within(never, 10)).resolves.toBeUndefined();
  });

  it('passes on a rejection that comes in time', async () => {
    await expect(within(Promise.reject(new Error('boom')), 1000)).rejects.toThrow('boom');
  });

  it('leaves no timer behind once the promise settled', async () => {
    jest.useFakeTimers();
    try {
      const result = within(Promise.resolve('done'), 60_000);
      await expect(result).resolves.toBe('done');
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('settledWithin', () => {
  it('resolves (never throws) when the promise rejects', async () => {
    await expect(settledWithin(Promise.reject(new Error('ignored')), 1000)).resolves.toBeUndefined();
  });

  it('resolves after the time when the promise never settles', async () => {
    await expect(settledWithin(new Promise(() => undefined), 10)).resolves.toBeUndefined();
  });
});
