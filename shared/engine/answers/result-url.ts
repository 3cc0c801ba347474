/**
 * Where the shopper (and the shopperResultUrl notification) is sent with a result:
 * `<shopperResultUrl>?id=…&resourcePath=…`. The merchant's own query parameters are kept as
 * written and the two appended, resourcePath percent-encoded (`%2Fv1%2Fcheckouts%2F…`), as the
 * family's redirects carry it.
 */
export function resultUrl(shopperResultUrl: string, id: string, resourcePath: string): string {
  const url = new URL(shopperResultUrl);
  const added = `id=${encodeURIComponent(id)}&resourcePath=${encodeURIComponent(resourcePath)}`;
  url.search = url.search === '' || url.search === '?' ? `?${added}` : `${url.search}&${added}`;
  return url.toString();
}
