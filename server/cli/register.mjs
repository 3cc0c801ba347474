// Loads tsx for bin/gateway. `node --import tsx` resolves `tsx` from the current directory, so it
// fails outside the repo; imported from here, `tsx` resolves from the repo's node_modules.
import 'tsx';
