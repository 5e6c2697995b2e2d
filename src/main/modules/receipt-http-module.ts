import { ReceiptInspection } from '../../application/receipts/receipt-inspection.js';
import type { ReceiptSigner } from '../../domain/terminal/receipt-signer.js';
import { typedModule } from '../typed-module.js';
import { mountReceiptHttp, type ReceiptHttpMounts } from '../receipt-http-mounts.js';
import { TYPES } from '../types.js';

/** HTTP only: the seed's receipt toolchain (validate, redact, schema, demo scenarios) and `GET /mcp/info`. */
export const receiptHttpModule = typedModule(({ bind }) => {
  bind<ReceiptInspection>(TYPES.ReceiptInspection).toResolvedValue(
    (signer: ReceiptSigner) => new ReceiptInspection(signer),
    [TYPES.ReceiptSigner],
  );
  bind<ReceiptHttpMounts>(TYPES.ReceiptHttpMounts).toResolvedValue(mountReceiptHttp, [
    TYPES.Config,
    TYPES.ReceiptInspection,
    TYPES.PolicySettings,
    TYPES.ServerInfo,
    TYPES.CommandConfinement,
  ]);
});
