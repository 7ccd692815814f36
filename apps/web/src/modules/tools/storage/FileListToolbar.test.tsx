import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderWithApp, setupI18n } from '../../../crud/testUtils';
import { FileListToolbar } from './FileListToolbar';

/** The toolbar shared by 文件列表 and 图床管理: what it shows for which rights, and what it hands back. */

beforeAll(async () => {
  await setupI18n();
});
afterEach(() => cleanup());

describe('file list toolbar', () => {
  it('searches by the trimmed text, and keeps batch delete disabled until rows are selected', () => {
    const searched: string[] = [];
    let deleted = 0;
    let refreshed = 0;
    const ui = (selectedCount: number) => (
      <FileListToolbar
        testId="storage"
        searchLabel="文件名"
        searchPlaceholder="输入文件名搜索"
        onSearch={(text) => searched.push(text)}
        uploadLabel="上传"
        onUpload={() => undefined}
        sync={{ run: () => undefined, pending: false }}
        batchDelete={{ selectedCount, run: () => deleted++ }}
        onRefresh={() => refreshed++}
      />
    );
    renderWithApp(ui(0));
    fireEvent.change(screen.getByTestId('storage-search'), { target: { value: '  十一月 ' } });
    fireEvent.keyDown(screen.getByTestId('storage-search'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(searched).toEqual(['十一月']);
    // U19: the search box is labelled like every list's filter row, with 搜索/重置 and the refresh icon
    expect(screen.getByText('文件名').tagName).toBe('LABEL');
    fireEvent.click(screen.getByTestId('crud-reset'));
    expect(searched).toEqual(['十一月', '']);
    fireEvent.click(screen.getByRole('button', { name: '刷新' }));
    expect(refreshed).toBe(1);
    const batch = screen.getByTestId('storage-batch-delete') as HTMLButtonElement;
    expect(batch.disabled).toBe(true);
    cleanup();
    renderWithApp(ui(2));
    fireEvent.click(screen.getByTestId('storage-batch-delete'));
    expect(deleted).toBe(1);
    expect(screen.getByTestId('storage-sync')).toBeTruthy();
  });

  it('shows no upload, sync or delete button without the rights for them', () => {
    renderWithApp(<FileListToolbar testId="picture" searchLabel="文件名" searchPlaceholder="按文件名搜索" onSearch={() => undefined} uploadLabel="上传图片" onRefresh={() => undefined} />);
    expect(screen.getByTestId('picture-search')).toBeTruthy();
    expect(screen.queryByTestId('picture-upload')).toBeNull();
    expect(screen.queryByTestId('picture-sync')).toBeNull();
    expect(screen.queryByTestId('picture-batch-delete')).toBeNull();
  });
});
