// One cell of the support matrix (test/package/support-matrix.ts): a file of its own, so that the
// cells run beside each other and a failing cell names itself in the file's name too.
import { describeCell, supportMatrix } from './support-matrix.js';

describeCell(supportMatrix.node22);
