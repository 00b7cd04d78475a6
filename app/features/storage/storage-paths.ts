/**
 * Object paths and the URLs of the Firebase Storage v0 protocol, shared by the server and the browser client.
 */
export const defaultStorageBucket = "default";

/** Where a signed-in user may write (PRODUCT §7). */
export const userPrefix = (uid: string) => `users/${uid}/`;
/** Where editors may also write (dev-blog images). */
export const blogPrefix = "blog/";
/** The profile photo of a user (issue: profile photo). */
export const avatarPath = (uid: string) => `${userPrefix(uid)}avatar`;

const maxPathBytes = 1024;

/**
 * A usable object path: not the root, no empty, `.` or `..` segments, no control characters, at most
 * 1024 bytes (Cloud Storage's limit). Returns the reason it is not, or null.
 */
export function pathProblem(path: string): "root" | "invalid" | null {
  if (path === "" || path === "/") return "root";
  if (new TextEncoder().encode(path).length > maxPathBytes) return "invalid";
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(path)) return "invalid";
  const segments = path.split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) return "invalid";
  return null;
}

/** The object's address: `/v0/b/<bucket>/o/<path, encoded as one segment>`. */
export function objectUrl(bucket: string, path: string, origin = ""): string {
  return `${origin}/v0/b/${encodeURIComponent(bucket)}/o/${encodeURIComponent(path)}`;
}

/** The public download link of an object for one of its download tokens. */
export function downloadUrl(bucket: string, path: string, token: string, origin = ""): string {
  return `${objectUrl(bucket, path, origin)}?alt=media&token=${encodeURIComponent(token)}`;
}
