import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { typedModule } from '../typed-module.js';
import type { Logger } from '../../application/logging/logger.js';
import { ReceiptRecorder } from '../../application/terminal/receipt-recorder.js';
import { SecretRedactor } from '../../application/terminal/secret-redactor.js';
import type { OutputArchive } from '../../application/terminal/output-archive.js';
import type { TerminalSettings } from '../../application/terminal/terminal-settings.js';
import { HmacReceiptSigner } from '../../adapters/receipts/hmac-receipt-signer.js';
import { JsonlReceiptAuditLog } from '../../adapters/receipts/jsonl-receipt-audit-log.js';
import type { ReceiptAuditLog } from '../../domain/terminal/receipt-audit-log.js';
import type { ReceiptSigner } from '../../domain/terminal/receipt-signer.js';
import type { Config } from '../config.js';
import { signalNumber } from '../signal-number.js';
import { TYPES, type IdGenerator } from '../types.js';

/** Signed receipts: the signer, the optional audit trail (AUDIT_LOG), the redaction of the server's own secrets. */
export const receiptsModule = typedModule(({ bind }) => {
  bind<SecretRedactor>(TYPES.SecretRedactor).toResolvedValue(
    (config: Config) =>
      new SecretRedactor([
        config.token,
        config.operatorToken,
        config.receiptKey,
        config.jwtSecret,
        config.deepseekApiKey,
      ]),
    [TYPES.Config],
  );
  // Without a configured key receipts are signed with a random per-process key: verifiable only by this process.
  bind<ReceiptSigner>(TYPES.ReceiptSigner).toResolvedValue(
    (config: Config) => new HmacReceiptSigner(config.receiptKey ?? randomBytes(32)),
    [TYPES.Config],
  );
  bind<ReceiptAuditLog | undefined>(TYPES.ReceiptAuditLog).toResolvedValue(
    (config: Config) =>
      config.auditLog === undefined ? undefined : new JsonlReceiptAuditLog(path.resolve(config.auditLog)),
    [TYPES.Config],
  );
  bind<ReceiptRecorder>(TYPES.ReceiptRecorder).toResolvedValue(
    (
      signer: ReceiptSigner,
      redactor: SecretRedactor,
      auditLog: ReceiptAuditLog | undefined,
      logger: Logger,
      newReceiptId: IdGenerator,
      archive: OutputArchive,
      settings: TerminalSettings,
    ) =>
      new ReceiptRecorder({
        signer,
        redactor,
        auditLog,
        logger,
        signalNumber,
        newReceiptId,
        archive,
        outputBudget: settings.outputBudget,
      }),
    [
      TYPES.ReceiptSigner,
      TYPES.SecretRedactor,
      { serviceIdentifier: TYPES.ReceiptAuditLog, optional: true },
      TYPES.Logger,
      TYPES.NewId,
      TYPES.OutputArchive,
      TYPES.TerminalSettings,
    ],
  );
});
