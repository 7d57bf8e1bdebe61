import { describe, expect, it } from "vitest";
import { namespacesInChunk } from "./page-namespaces";

const names = ["common", "sms", "live", "liveDesk", "email", "admin"];

describe("namespacesInChunk", () => {
  it("finds prefixed keys and useTranslation's arguments, minified", () => {
    expect(namespacesInChunk('const{t:e}=Oe("liveDesk");e("title")', names)).toEqual(["liveDesk"]);
    expect(namespacesInChunk('Oe(["live","common"])', names)).toEqual(["common", "live"]);
    expect(namespacesInChunk('const h={crumb:"sms:history.title"};x(`admin:${k}`)', names)).toEqual(["sms", "admin"]);
  });

  it("ignores the same words used as data: the namespace list, enum values, schema kinds", () => {
    expect(namespacesInChunk('const N=["common","sms","live","liveDesk","email","admin"];', names)).toEqual([]);
    expect(namespacesInChunk('const S=["admin","email"];z({kind:"email"});', names)).toEqual([]);
  });
});
