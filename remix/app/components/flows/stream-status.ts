/** A flow stream's status as a badge variant (the stream view and the reports' list). */
export const STREAM_BADGE: Record<string, "secondary" | "success" | "outline" | "destructive" | "warning" | "default"> = {
  running: "default",
  waiting: "outline",
  finished: "success",
  handed_off: "secondary",
  cancelled: "warning",
  dropped: "warning",
  failed: "destructive",
};
