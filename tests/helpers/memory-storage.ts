/** A Storage stand-in that can also be made to fail, as a full or disabled storage does. */
export function memoryStorage(failing = false) {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) =>
      failing
        ? (() => {
            throw new Error('denied');
          })()
        : (data.get(k) ?? null),
    setItem: (k: string, v: string) => {
      if (failing) throw new Error('quota');
      data.set(k, v);
    },
    removeItem: (k: string) => void data.delete(k),
  };
}
