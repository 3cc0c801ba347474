/** The kit's page object (e2e/kit/widget/PaymentModal.ts): the QA kit and the repository's flows share it. */
export * from '../kit/widget/PaymentModal';
