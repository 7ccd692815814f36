import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import App from './app/App';
import { installErrorCapture } from './app/errorLog';
import { initI18n } from './app/i18n';
import './styles.css';

installErrorCapture();

initI18n().then(() => {
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing in index.html');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
