import { typedModule } from '../typed-module.js';
import { mountReceiptHttp, type ReceiptHttpMounts } from '../receipt-http-mounts.js';
import { TYPES } from '../types.js';

/** HTTP only: the seed's receipt toolchain (validate, redact, schema, demo scenarios) and `GET /mcp/info`. */
export const receiptHttpModule = typedModule(({ bind }) => {
  bind<ReceiptHttpMounts>(TYPES.ReceiptHttpMounts).toResolvedValue(mountReceiptHttp, [
    TYPES.Config,
    TYPES.ReceiptSigner,
    TYPES.PolicySettings,
    TYPES.ServerInfo,
    TYPES.CommandConfinement,
  ]);
});
