import { describe, it, expect } from "vitest";

import { pagerItems } from "./pager";

describe("pagerItems", () => {
  it("returns nothing for no pages and a single page for one", () => {
    expect(pagerItems(1, 0)).toEqual([]);
    expect(pagerItems(1, 1)).toEqual([1]);
  });

  it("shows both pages when there are two", () => {
    expect(pagerItems(1, 2)).toEqual([1, 2]);
    expect(pagerItems(2, 2)).toEqual([1, 2]);
  });

  it("shows every page when there are at most 7", () => {
    expect(pagerItems(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pagerItems(1, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it("windows around the current page in the middle", () => {
    expect(pagerItems(5, 10)).toEqual([1, "ellipsis", 4, 5, 6, "ellipsis", 10]);
    expect(pagerItems(50, 100)).toEqual([1, "ellipsis", 49, 50, 51, "ellipsis", 100]);
  });

  it("handles the first and last page", () => {
    expect(pagerItems(1, 10)).toEqual([1, 2, 3, 4, 5, "ellipsis", 10]);
    expect(pagerItems(10, 10)).toEqual([1, "ellipsis", 6, 7, 8, 9, 10]);
  });

  it("never hides a single page behind an ellipsis near the edges", () => {
    expect(pagerItems(3, 10)).toEqual([1, 2, 3, 4, 5, "ellipsis", 10]);
    expect(pagerItems(4, 10)).toEqual([1, 2, 3, 4, 5, "ellipsis", 10]);
    expect(pagerItems(7, 10)).toEqual([1, "ellipsis", 6, 7, 8, 9, 10]);
    expect(pagerItems(8, 10)).toEqual([1, "ellipsis", 6, 7, 8, 9, 10]);
    expect(pagerItems(4, 8)).toEqual([1, 2, 3, 4, 5, "ellipsis", 8]);
    expect(pagerItems(5, 8)).toEqual([1, "ellipsis", 4, 5, 6, 7, 8]);
  });

  it("clamps out-of-range current pages", () => {
    expect(pagerItems(0, 10)).toEqual(pagerItems(1, 10));
    expect(pagerItems(99, 10)).toEqual(pagerItems(10, 10));
  });

  it("supports a different number of siblings", () => {
    expect(pagerItems(10, 20, 2)).toEqual([1, "ellipsis", 8, 9, 10, 11, 12, "ellipsis", 20]);
    expect(pagerItems(5, 10, 0)).toEqual([1, "ellipsis", 5, "ellipsis", 10]);
    expect(pagerItems(1, 10, 0)).toEqual([1, 2, 3, "ellipsis", 10]);
  });

  it("keeps a constant length once pages are windowed", () => {
    for (let page = 1; page <= 30; page++) expect(pagerItems(page, 30)).toHaveLength(7);
  });
});
