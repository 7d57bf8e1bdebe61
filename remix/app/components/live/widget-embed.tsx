/**
 * Mounts the embeddable widget (public/widget.js) inside a React-owned element: the script tag is
 * added after hydration (so it also runs after a client-side navigation) and the widget renders
 * into the element's shadow root, which goes away with the element.
 */
import { useEffect, useRef } from "react";

export function WidgetEmbed({ widgetKey, mode, className }: { widgetKey: string; mode?: "page"; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const host = ref.current;
    if (!host) return;
    const target = `mw-${Math.random().toString(36).slice(2, 10)}`;
    host.id = target;
    const s = document.createElement("script");
    s.src = "/widget.js";
    s.async = true;
    s.dataset.key = widgetKey;
    s.dataset.target = target;
    if (mode) s.dataset.mode = mode;
    document.body.appendChild(s);
    return () => s.remove();
  }, [widgetKey, mode]);
  return <div ref={ref} className={className} data-testid="widget-host" suppressHydrationWarning />;
}
