/**
 * The shop's two pages, as its backend (server.ts) serves them: the checkout page, which embeds
 * the widget, and the result page the gateway sends the shopper back to. Kept as strings rather
 * than files read beside this module: finding "beside" needs `import.meta.url` in an ES module
 * project and `__dirname` in a CommonJS one, and this example runs in both.
 */

/** `/`: the checkout page; `?subscribe` creates a checkout that also stores the card. */
export const checkoutPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Acme Tea – checkout</title>
</head>
<body>
  <h1>Acme Tea</h1>
  <p>Sencha, 250 g: €12.50</p>
  <main id="payment"></main>
  <script type="module">
    // The shop's own checkout page: its backend creates the checkout, the page embeds the widget.
    const subscribe = new URLSearchParams(location.search).has('subscribe');
    const response = await fetch('/api/checkouts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ subscribe }),
    });
    const { widgetUrl } = await response.json();
    const form = document.createElement('form');
    form.className = 'paymentWidgets';
    form.action = '/result';
    form.dataset.brands = 'VISA MASTER AMEX';
    document.getElementById('payment').append(form);
    const script = document.createElement('script');
    script.src = widgetUrl;
    document.head.append(script);
  </script>
</body>
</html>
`;

/** `/result`: the payment's result, and the daily delivery button once the card is stored. */
export const resultPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Acme Tea – your order</title>
</head>
<body>
  <h1>Your order</h1>
  <p>Payment result: <output id="result-code"></output> <span id="result-description"></span></p>
  <p id="subscription" hidden>
    <button type="button" id="subscribe">Deliver every day</button>
    Next delivery: <output id="next-payment"></output>
  </p>
  <script type="module">
    // The gateway sends the shopper back with ?id=…&resourcePath=…; the backend reads the result.
    const resourcePath = new URLSearchParams(location.search).get('resourcePath') ?? '';
    const result = await (await fetch('/api/result?resourcePath=' + encodeURIComponent(resourcePath))).json();
    document.getElementById('result-code').textContent = result.code;
    document.getElementById('result-description').textContent = result.description;
    if (result.registrationId) {
      document.getElementById('subscription').hidden = false;
      document.getElementById('subscribe').addEventListener('click', async () => {
        const response = await fetch('/api/subscriptions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ registrationId: result.registrationId }),
        });
        document.getElementById('next-payment').textContent = (await response.json()).nextRunTime;
      });
    }
  </script>
</body>
</html>
`;
