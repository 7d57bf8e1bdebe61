import * as React from "react";
import { ChevronRightIcon } from "lucide-react";

export const BREADCRUMBS_MAX_LEVELS = 4;

export interface BreadcrumbItem {
  label: React.ReactNode;
  href?: string;
}

export interface BreadcrumbsProps extends Omit<React.ComponentProps<"nav">, "children"> {
  items: BreadcrumbItem[];
  /** Accessible name of the navigation landmark (translated, e.g. "Breadcrumb"). */
  label: string;
}

/** Trail of at most 4 levels (the last 4 are kept); the last item is the current page. */
export function Breadcrumbs({ items, label, className, ...props }: BreadcrumbsProps) {
  const visible = items.slice(-BREADCRUMBS_MAX_LEVELS);
  if (visible.length === 0) return null;
  return (
    <nav aria-label={label} data-slot="breadcrumbs" className={className} {...props}>
      <ol className="flex flex-wrap items-center gap-1.5 text-sm break-words text-muted-foreground sm:gap-2.5">
        {visible.map((item, i) => {
          const last = i === visible.length - 1;
          return (
            <li key={i} className="inline-flex items-center gap-1.5 sm:gap-2.5">
              {last ? (
                <span aria-current="page" className="font-normal text-foreground">
                  {item.label}
                </span>
              ) : item.href ? (
                <a href={item.href} className="transition-colors hover:text-foreground">
                  {item.label}
                </a>
              ) : (
                <span>{item.label}</span>
              )}
              {!last && <ChevronRightIcon aria-hidden="true" className="size-3.5" />}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
