import { Card, Empty, Typography } from 'antd';
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
// the ESM build: lib/core is CommonJS, whose default export reaches the bundle as an object
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useTranslation } from 'react-i18next';
import type { ChosenTask, Trait } from './ModelStatistics';

echarts.use([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

/** One task's top-10 items of its latest successful run as horizontal bars, largest on top. */
export default function TraitChart({ task, traits }: { task: ChosenTask; traits: Trait[] | undefined }) {
  const { t } = useTranslation('models');
  const data = [...(traits ?? [])].slice(0, 10).reverse();
  return (
    <Card size="small" title={task.jobName} extra={<Typography.Text type="secondary">{task.modelName}</Typography.Text>} data-testid="dashboard-chart">
      {traits && traits.length === 0 ? (
        <Empty description={t('dashboard.noTraits')} image={Empty.PRESENTED_IMAGE_SIMPLE} style={{ height: 280, margin: 0, display: 'flex', flexDirection: 'column', justifyContent: 'center' }} />
      ) : (
        <ReactEChartsCore
          echarts={echarts}
          style={{ height: 280 }}
          notMerge
          showLoading={!traits}
          option={{
            grid: { left: 8, right: 36, top: 8, bottom: 8, containLabel: true },
            tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
            // counts get whole-number ticks; money sums keep their decimals
            xAxis: { type: 'value', minInterval: data.every((d) => Number.isInteger(d.number)) ? 1 : undefined },
            yAxis: { type: 'category', data: data.map((d) => d.name), axisLabel: { width: 110, overflow: 'truncate' } },
            series: [{ type: 'bar', data: data.map((d) => d.number), label: { show: true, position: 'right' }, itemStyle: { color: '#1677ff', borderRadius: [0, 3, 3, 0] }, barMaxWidth: 18 }],
          }}
        />
      )}
    </Card>
  );
}

