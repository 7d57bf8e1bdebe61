/**
 * The script nonce of this server render (entry.server.tsx provides it; root.tsx gives it to
 * Remix's inline scripts). Empty in the browser: scripts added after hydration come from our
 * origin, which the Content-Security-Policy allows without one.
 */
import { createContext, useContext } from "react";

const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export const useNonce = () => useContext(NonceContext);
