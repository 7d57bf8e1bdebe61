import { useEffect, useState } from "react";

/** False in the server's HTML and the first render in the browser, true once hydrated: what needs JavaScript appears only then. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
