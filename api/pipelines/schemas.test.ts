/** The workflow board forms' rules (spec section 5), without the database: what the API and the screens both check. */
import { describe, expect, it } from "vitest";
import { boardSchema, columnSchema, dealSchema, moveSchema, taskSchema } from "./schemas";

const issues = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));
const deal = { lead_name: "Padaria", description: "SMS", priority: "high", due_date: "2026-12-20" };

describe("deal", () => {
  it("requires lead name, description, priority and due date, naming each", () => {
    expect(issues(dealSchema.safeParse({}))).toEqual({
      lead_name: "validation.required",
      description: "validation.required",
      priority: "validation.required",
      due_date: "validation.required",
    });
  });
  it("holds a lead name of 25 and a description of 200", () => {
    expect(dealSchema.safeParse({ ...deal, lead_name: "x".repeat(25), description: "y".repeat(200) }).success).toBe(true);
    expect(issues(dealSchema.safeParse({ ...deal, lead_name: "x".repeat(26), description: "y".repeat(201) }))).toEqual({
      lead_name: "validation.maxLength::25",
      description: "validation.maxLength::200",
    });
  });
  it("reads medium as normal, refuses an unknown priority and an impossible date", () => {
    expect(dealSchema.parse({ ...deal, priority: "medium" }).priority).toBe("normal");
    expect(issues(dealSchema.safeParse({ ...deal, priority: "soon", due_date: "2026-02-30" }))).toEqual({ priority: "validation.option", due_date: "validation.date" });
  });
  it("reads money typed on a form into integer centavos", () => {
    expect(dealSchema.parse({ ...deal, value: "1.234,56" }).value).toBe(123456);
    expect(dealSchema.parse({ ...deal, value: "R$ 10" }).value).toBe(1000);
    expect(dealSchema.parse({ ...deal, value: "0,05" }).value).toBe(5);
    expect(dealSchema.safeParse({ ...deal, value: "dez" }).success).toBe(false);
    expect(dealSchema.safeParse({ ...deal, value_cents: 1.5 }).success).toBe(false);
  });
});

describe("columns and boards", () => {
  it("a column name is required with its own message, at most 50", () => {
    expect(issues(columnSchema.safeParse({ name: "  " }))).toEqual({ name: "pipelines.errors.columnNameRequired" });
    expect(issues(columnSchema.safeParse({}))).toEqual({ name: "pipelines.errors.columnNameRequired" });
    expect(issues(columnSchema.safeParse({ name: "x".repeat(51) }))).toEqual({ name: "validation.maxLength::50" });
  });
  it("a board's first columns come one per line from a form, blanks skipped", () => {
    expect(boardSchema.parse({ name: "Vendas", columns: "Novos\r\n\nProposta \n" }).columns).toEqual(["Novos", "Proposta"]);
  });
});

describe("moves and tasks", () => {
  it("a move needs the target column and the version seen", () => {
    expect(Object.keys(issues(moveSchema.safeParse({})))).toEqual(["to_column_id", "expected_version"]);
    expect(moveSchema.parse({ to_column_id: "0b6a7f36-6f7e-4a43-9a8f-0d2b7f1c9e11", expected_version: "3", position: "0" })).toMatchObject({ expected_version: 3, position: 0 });
  });
  it("a task's local time is São Paulo's", () => {
    expect(taskSchema.parse({ title: "Ligar", description: "Proposta", priority: "low", due_at: "2026-12-01T09:30" }).due_at.toISOString()).toBe("2026-12-01T12:30:00.000Z");
    expect(Object.keys(issues(taskSchema.safeParse({ title: "Ligar", description: "Proposta", priority: "low" })))).toEqual(["due_at"]);
    expect(issues(taskSchema.safeParse({ due_at: "2026-12-01T09:30", priority: "low" }))).toEqual({ title: "validation.required", description: "validation.required" });
  });
});
