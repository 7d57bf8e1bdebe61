/**
 * "Copy" for a text the page also shows in a read-only field: rendered only once hydrated (with
 * JavaScript), so without it the field alone remains, selectable — no button that does nothing.
 * Used by the widget's snippet and the short links; each screen passes its own translated labels.
 */
import { useEffect, useState } from "react";
import { Button } from "~/components/ui/button";

export function CopyButton({ text, label, copiedLabel }: { text: string; label: string; copiedLabel: string }) {
  const [hydrated, setHydrated] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated) return null;
  return (
    <Button
      type="button"
      size="sm"
      variant="outline"
      onClick={() =>
        void navigator.clipboard?.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
    >
      {copied ? copiedLabel : label}
    </Button>
  );
}
