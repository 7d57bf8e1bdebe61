import * as React from "react";
import { CircleCheckIcon, CircleXIcon, InfoIcon, TriangleAlertIcon, XIcon } from "lucide-react";

import { cn } from "../../lib/utils";

/** Toasts fade in after this delay (CSS `animate-toast-in` in app.css, no JS needed). */
export const TOAST_FADE_IN_MS = 150;
/** Non-persistent toasts are removed after this long (paused while hovered or focused). */
export const TOAST_AUTO_HIDE_MS = 4000;

export type ToastType = "success" | "error" | "info" | "warning";

export interface ToastData {
  id: string;
  type: ToastType;
  title: string;
  description?: string;
  /** Needs user interaction: never auto-hides. */
  persistent?: boolean;
}

export type ToastInput = Omit<ToastData, "id"> & { id?: string };

interface ToastContextValue {
  toasts: ToastData[];
  toast: (toast: ToastInput) => string;
  dismiss: (id: string) => void;
}

const ToastContext = React.createContext<ToastContextValue | null>(null);

export function useToast() {
  const context = React.useContext(ToastContext);
  if (!context) throw new Error("useToast must be used within a ToastProvider");
  return context;
}

const icons = {
  success: <CircleCheckIcon aria-hidden="true" className="size-5 text-success" />,
  error: <CircleXIcon aria-hidden="true" className="size-5 text-destructive" />,
  warning: <TriangleAlertIcon aria-hidden="true" className="size-5 text-warning" />,
  info: <InfoIcon aria-hidden="true" className="size-5 text-info" />,
} satisfies Record<ToastType, React.ReactNode>;

let counter = 0;
const nextId = () => `toast-${Date.now().toString(36)}-${++counter}`;
const NO_TOASTS: ToastData[] = [];

export interface ToastProviderProps {
  /** Rendered on the server too, so they show without JavaScript. Toasts with new ids passed later are added. */
  initialToasts?: ToastData[];
  closeLabel: string;
  className?: string;
  children?: React.ReactNode;
}

export function ToastProvider({ initialToasts = NO_TOASTS, closeLabel, className, children }: ToastProviderProps) {
  const [toasts, setToasts] = React.useState(initialToasts);
  const dismissed = React.useRef(new Set<string>());

  const dismiss = React.useCallback((id: string) => {
    dismissed.current.add(id);
    setToasts((current) => current.filter((t) => t.id !== id));
  }, []);

  const toast = React.useCallback((input: ToastInput) => {
    const id = input.id ?? nextId();
    dismissed.current.delete(id);
    setToasts((current) => [...current.filter((t) => t.id !== id), { ...input, id }]);
    return id;
  }, []);

  // Merge toasts that arrive through props later (e.g. flash messages after a client-side navigation).
  React.useEffect(() => {
    setToasts((current) => {
      const fresh = initialToasts.filter((t) => !dismissed.current.has(t.id) && !current.some((c) => c.id === t.id));
      return fresh.length ? [...current, ...fresh] : current;
    });
  }, [initialToasts]);

  const value = React.useMemo(() => ({ toasts, toast, dismiss }), [toasts, toast, dismiss]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <Toaster toasts={toasts} onDismiss={dismiss} closeLabel={closeLabel} className={className} />
    </ToastContext.Provider>
  );
}

export interface ToasterProps {
  toasts: ToastData[];
  onDismiss: (id: string) => void;
  closeLabel: string;
  className?: string;
}

/** Stateless list of toasts; ToastProvider renders it for you. */
export function Toaster({ toasts, onDismiss, closeLabel, className }: ToasterProps) {
  return (
    <div data-slot="toaster" className={cn("pointer-events-none fixed right-0 bottom-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 sm:max-w-sm", className)}>
      {toasts.map((t) => (
        <Toast key={t.id} toast={t} onDismiss={onDismiss} closeLabel={closeLabel} />
      ))}
    </div>
  );
}

export interface ToastProps {
  toast: ToastData;
  onDismiss: (id: string) => void;
  closeLabel: string;
}

export function Toast({ toast, onDismiss, closeLabel }: ToastProps) {
  const { id, type, title, description, persistent } = toast;
  const [paused, setPaused] = React.useState(false);
  // Keep the timer running across re-renders even if the parent passes a new onDismiss each time.
  const dismissRef = React.useRef(onDismiss);
  React.useEffect(() => void (dismissRef.current = onDismiss));

  React.useEffect(() => {
    if (persistent || paused) return;
    const timer = setTimeout(() => dismissRef.current(id), TOAST_AUTO_HIDE_MS);
    return () => clearTimeout(timer);
  }, [id, persistent, paused]);

  const isError = type === "error";
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover and focus only pause the auto-hide timer (time to read, WCAG 2.2.1); the toast itself does nothing when used
    <div
      data-slot="toast"
      data-type={type}
      // For the pages served without React (ADR 051): the enhancement script closes it the same way.
      data-persistent={persistent ? "" : undefined}
      data-hide-after={TOAST_AUTO_HIDE_MS}
      role={isError ? "alert" : "status"}
      aria-live={isError ? "assertive" : "polite"}
      aria-atomic="true"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      className="pointer-events-auto relative flex w-full animate-toast-in items-start gap-3 rounded-lg border bg-popover p-4 pr-10 text-popover-foreground shadow-lg"
    >
      {icons[type]}
      <div className="grid gap-1">
        <p className="text-sm font-semibold">{title}</p>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      <button
        type="button"
        data-toast-close=""
        onClick={() => onDismiss(id)}
        className="absolute top-3 right-3 rounded-xs opacity-70 transition-opacity hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-hidden"
      >
        <XIcon aria-hidden="true" className="size-4" />
        <span className="sr-only">{closeLabel}</span>
      </button>
    </div>
  );
}
