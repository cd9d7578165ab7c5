import { useEffect, useState } from 'react';

/**
 * False in the server's HTML and until the island has hydrated. Controls that
 * only work with JavaScript stay disabled until then, so a click on a slow
 * connection is never silently lost.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
