import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import App from './app/App';
import { startSession } from './app/auth';
import { installErrorCapture } from './app/errorLog';
import { initI18n } from './app/i18n';
import { preloadAfterLogin } from './app/router';
import 'antd/dist/antd.css';
import './styles.css';

installErrorCapture();
// a logged-in page load: user, menus, layout and screen code are requested while the texts load
if (startSession()) preloadAfterLogin(window.location.pathname);

initI18n().then(() => {
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing in index.html');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
