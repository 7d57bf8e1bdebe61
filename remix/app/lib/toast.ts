export type ToastInput = {
  type: "success" | "error" | "info" | "warning";
  /** Locale key (translated when shown) and its parameters. */
  title: string;
  description?: string;
  params?: Record<string, string | number>;
  persistent?: boolean;
};
