/**
 * The visual MJML editor of /mail/templates/create (issue 17, ADR 037): GrapesJS with its MJML
 * plugin (grapesjs-mjml), loaded only when the person opens it on this screen (a dynamic import:
 * nothing of it is in the main bundle). It starts from the form's MJML textarea and writes the
 * MJML back into that same textarea on every change, so the plain form saves it; without
 * JavaScript the button is not there and the textarea is the editor. Under the app's CSP: no
 * eval is needed (GrapesJS renders with DOM calls), its styles and its icon font (Font Awesome 4.7,
 * the `font-awesome` package) come from our origin; third-party stylesheets (web fonts in the
 * canvas) are refused by the CSP and fall back to system fonts.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { Button } from "~/components/ui/button";

type Editor = { getHtml: () => string; on: (event: string, fn: () => void) => void; destroy: () => void };

export function VisualEditorButton({ textareaId }: { textareaId: string }) {
  const { t } = useTranslation("emailTemplates");
  const [hydrated, setHydrated] = useState(false);
  const [state, setState] = useState<"closed" | "loading" | "open" | "failed">("closed");
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<Editor | null>(null);
  useEffect(() => setHydrated(true), []);
  useEffect(() => () => editor.current?.destroy(), []);

  async function open() {
    const textarea = document.getElementById(textareaId) as HTMLTextAreaElement | null;
    if (!textarea || !host.current) return;
    setState("loading");
    try {
      const [{ default: grapesjs }, { default: mjml }, { default: cssUrl }, { default: iconsUrl }] = await Promise.all([
        import("grapesjs"),
        import("grapesjs-mjml"),
        import("grapesjs/dist/css/grapes.min.css?url"),
        // The icon font of the editor's panels and toolbar (Font Awesome 4.7, the one GrapesJS names), served by us.
        import("font-awesome/css/font-awesome.min.css?url"),
      ]);
      for (const [name, href] of [
        ["grapesjs", cssUrl],
        ["grapesjsIcons", iconsUrl],
      ]) {
        if (document.querySelector(`link[data-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`)) continue;
        const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
        link.dataset[name] = "";
        document.head.appendChild(link);
      }
      const instance = grapesjs.init({
        container: host.current,
        height: "640px",
        fromElement: false,
        storageManager: false,
        // Not the CDN's copy GrapesJS would fetch (outside the CSP, style-src 'self'): ours, added above.
        cssIcons: "",
        plugins: [mjml],
        pluginsOpts: { [mjml as unknown as string]: {} },
        components: textarea.value,
      }) as unknown as Editor;
      editor.current = instance;
      // The editor sits inside the template's form: its own buttons must never submit it.
      host.current.addEventListener(
        "click",
        (e) => {
          const button = (e.target as Element | null)?.closest?.("button");
          if (button && !button.getAttribute("type")) button.type = "button";
        },
        true,
      );
      // Every change goes back into the form's field (the MJML, as the plugin exports it).
      instance.on("update", () => {
        textarea.value = instance.getHtml();
        textarea.dispatchEvent(new Event("input", { bubbles: true }));
      });
      setState("open");
    } catch {
      setState("failed");
    }
  }

  function close() {
    editor.current?.destroy();
    editor.current = null;
    setState("closed");
  }

  if (!hydrated) return null;
  return (
    <div className="space-y-2" data-testid="visual-editor">
      {state === "open" ? (
        <Button type="button" variant="outline" size="sm" onClick={close}>
          {t("editor.close")}
        </Button>
      ) : (
        <Button type="button" variant="outline" size="sm" onClick={open} disabled={state === "loading"}>
          {state === "loading" ? t("editor.loading") : t("editor.open")}
        </Button>
      )}
      {state === "failed" ? (
        <p role="alert" className="text-sm text-destructive">
          {t("editor.failed")}
        </p>
      ) : null}
      {state === "open" ? <p className="text-sm text-muted-foreground">{t("editor.hint")}</p> : null}
      <div ref={host} className={state === "open" || state === "loading" ? "overflow-hidden rounded-md border" : "hidden"} />
    </div>
  );
}
