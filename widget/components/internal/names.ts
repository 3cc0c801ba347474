/**
 * A person's name as the customer group takes it: customer.givenName (the given names) and
 * customer.surname (the last word), each at most 50 characters; one word is both.
 */
export function customerName(name: string): [string, string][] {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const surname = words.pop() ?? '';
  if (surname === '') return [];
  return [
    ['customer.givenName', (words.join(' ') || surname).slice(0, 50)],
    ['customer.surname', surname.slice(0, 50)],
  ];
}
