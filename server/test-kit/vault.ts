/** A vault under the tests' fixed data key, for tests that open a store without a gateway. */
import { openVault, type Vault } from '../security/vault';
import { TEST_DATA_KEY } from './gateway';

/** The key comes from the environment: no key file is read or written. */
export const testVault = (): Vault => openVault({ dataDir: '.', env: { GATEWAY_DATA_KEY: TEST_DATA_KEY } });
