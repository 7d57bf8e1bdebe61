import { Link } from "@remix-run/react";
import { Button } from "~/components/ui/button";

/** A short result page inside the guest frame (success, thank-you, verified, invalid token…). */
export function AuthMessage({ title, body, action, tone = "default" }: { title: string; body: string; action?: { to: string; label: string }; tone?: "default" | "error" }) {
  return (
    <div className="space-y-4 text-center" data-testid="auth-message">
      <h1 className={tone === "error" ? "text-2xl font-semibold text-destructive" : "text-2xl font-semibold"}>{title}</h1>
      <p className="text-muted-foreground">{body}</p>
      {action ? (
        <Button asChild className="w-full">
          <Link to={action.to}>{action.label}</Link>
        </Button>
      ) : null}
    </div>
  );
}
