/**
 * The bearer token the page sends, when the server verifies tokens (docs/auth.md). A real app gets it
 * from its identity provider's SDK after sign-in; this sample takes one given to it: `?token=<jwt>` in the address
 * (kept for the tab in sessionStorage and removed from the address, so it is not bookmarked or shared), or
 * VITE_AGUI_TOKEN at build time. Without one, requests carry no Authorization header.
 */
const STORAGE_KEY = "agui-token";

function token(): string | undefined {
  const params = new URLSearchParams(location.search);
  const given = params.get("token");
  if (given) {
    sessionStorage.setItem(STORAGE_KEY, given);
    params.delete("token");
    const query = params.toString();
    history.replaceState(null, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
  }
  return sessionStorage.getItem(STORAGE_KEY) ?? (import.meta.env.VITE_AGUI_TOKEN as string | undefined) ?? undefined;
}

/** The headers that say who the page's user is: `Authorization: Bearer <token>`, or none. */
export function authHeaders(): Record<string, string> {
  const bearer = token();
  return bearer ? { Authorization: `Bearer ${bearer}` } : {};
}
