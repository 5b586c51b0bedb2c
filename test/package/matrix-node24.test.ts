// One cell of the support matrix (test/package/support-matrix.ts): a file of its own, so that the
// cells run beside each other and a failing cell names itself in the file's name too. Its two projects
// are the ones the Node 24 files share (node24Projects), made once a run.
import { describeCell, node24Projects, supportMatrix } from './support-matrix.js';

describeCell(supportMatrix.node24, node24Projects);
