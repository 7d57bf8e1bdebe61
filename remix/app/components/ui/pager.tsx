import * as React from "react";
import { ChevronLeftIcon, ChevronRightIcon, EllipsisIcon } from "lucide-react";

import { cn } from "../../lib/utils";
import { buttonVariants } from "./button";

export type PagerItem = number | "ellipsis";

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * Pages to show: first, last, `siblings` pages either side of `current`, and "ellipsis" for gaps.
 * The result always has the same length (2 * siblings + 5) once there are more pages than that,
 * and an ellipsis never stands in for a single page. E.g. (5, 10) -> [1, "ellipsis", 4, 5, 6, "ellipsis", 10].
 */
export function pagerItems(current: number, total: number, siblings = 1): PagerItem[] {
  total = Math.max(0, Math.floor(total));
  siblings = Math.max(0, Math.floor(siblings));
  const slots = 2 * siblings + 5;
  if (total <= slots) return range(1, total);
  const page = Math.min(Math.max(1, Math.floor(current) || 1), total);
  // Window around the current page, shifted so it never touches the first/last page slots.
  const start = Math.min(Math.max(page - siblings, 3), total - 2 - 2 * siblings);
  const end = start + 2 * siblings;
  return [1, start === 3 ? 2 : "ellipsis", ...range(start, end), end === total - 2 ? total - 1 : "ellipsis", total];
}

export interface PagerLabels {
  previous: string;
  next: string;
  /** Accessible name of a page link, e.g. (n) => `Page ${n}`. */
  page: (page: number) => string;
  /** Accessible text for the ellipsis, e.g. "More pages". */
  more: string;
}

export interface PagerProps extends Omit<React.ComponentProps<"nav">, "children"> {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
  labels: PagerLabels;
  siblings?: number;
}

/** Pagination with plain links, so it works without JavaScript. Renders nothing for a single page. */
export function Pager({ page, pageCount, hrefFor, labels, siblings, className, ...props }: PagerProps) {
  if (pageCount <= 1) return null;
  const current = Math.min(Math.max(1, page), pageCount);

  const edge = (target: number, disabled: boolean, label: string, rel: "prev" | "next") => {
    const icon = rel === "prev" ? <ChevronLeftIcon aria-hidden="true" /> : <ChevronRightIcon aria-hidden="true" />;
    return (
      <a
        href={disabled ? undefined : hrefFor(target)}
        rel={disabled ? undefined : rel}
        role={disabled ? "link" : undefined}
        aria-disabled={disabled || undefined}
        data-slot={`pager-${rel}`}
        className={cn(buttonVariants({ variant: "ghost" }), "gap-1 px-2.5", disabled && "pointer-events-none opacity-50")}
      >
        {rel === "prev" && icon}
        <span className="sr-only sm:not-sr-only">{label}</span>
        {rel === "next" && icon}
      </a>
    );
  };

  return (
    <nav data-slot="pager" className={cn("mx-auto flex w-full justify-center", className)} {...props}>
      <ul className="flex flex-row flex-wrap items-center gap-1">
        <li>{edge(current - 1, current <= 1, labels.previous, "prev")}</li>
        {pagerItems(current, pageCount, siblings).map((item, i) =>
          item === "ellipsis" ? (
            <li key={`ellipsis-${i}`}>
              <span data-slot="pager-ellipsis" className="flex size-9 items-center justify-center">
                <EllipsisIcon aria-hidden="true" className="size-4" />
                <span className="sr-only">{labels.more}</span>
              </span>
            </li>
          ) : (
            <li key={item}>
              <a
                href={hrefFor(item)}
                aria-label={labels.page(item)}
                aria-current={item === current ? "page" : undefined}
                data-slot="pager-link"
                className={buttonVariants({ variant: item === current ? "outline" : "ghost", size: "icon" })}
              >
                {item}
              </a>
            </li>
          ),
        )}
        <li>{edge(current + 1, current >= pageCount, labels.next, "next")}</li>
      </ul>
    </nav>
  );
}

/** For client-side paged lists: go back to page 1 whenever the page count changes (e.g. after filtering). */
export function usePagerReset(pageCount: number, setPage: (page: number) => void) {
  const previous = React.useRef(pageCount);
  React.useEffect(() => {
    if (previous.current === pageCount) return;
    previous.current = pageCount;
    setPage(1);
  }, [pageCount, setPage]);
}
