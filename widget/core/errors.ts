/**
 * The errors `wpwlOptions.onError` receives, named as the ecosystem's merchant code checks them
 * (`err.name === 'InvalidCheckoutIdError'`).
 */
export type WidgetErrorName = 'InvalidCheckoutIdError' | 'WidgetError' | 'PciIframeSubmitError';

export class WpwlError extends Error {
  override readonly name: WidgetErrorName;
  constructor(name: WidgetErrorName, message: string) {
    super(message);
    this.name = name;
  }
}

export const invalidCheckoutId = (message: string) => new WpwlError('InvalidCheckoutIdError', message);
export const widgetError = (message: string) => new WpwlError('WidgetError', message);
export const iframeSubmitError = (message: string) => new WpwlError('PciIframeSubmitError', message);
