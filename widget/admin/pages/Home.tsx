/** The start page: an operator's merchants, or a merchant user's own merchant. */
import { useEffect } from 'preact/hooks';
import { navigate } from '../router';
import { user } from '../state/session';

export function Home() {
  const me = user.value;
  useEffect(() => {
    if (me?.merchantId) navigate(`/merchants/${encodeURIComponent(me.merchantId)}`);
    else navigate('/merchants');
  }, [me]);
  return null;
}
