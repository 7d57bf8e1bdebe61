/**
 * 201 Created with Location (issue 12 item 14; RFC 9110 §15.3.2): every route that creates a
 * resource answers this way, its body the new resource. Declare it with openapi's createdResponse.
 */
type Set = { status?: number | string; headers: Record<string, string | number> };

export function created<T>(set: Set, location: string, body: T): T {
  set.status = 201;
  set.headers.location = location;
  return body;
}
