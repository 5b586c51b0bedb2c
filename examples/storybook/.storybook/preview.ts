import { mswLoader } from 'msw-storybook-addon/csf3';
import '../../web/src/style.css';

// msw-storybook-addon starts one worker for the whole Storybook; each story's withOrderMock adds its mock to it.
export default { loaders: [mswLoader()] };
