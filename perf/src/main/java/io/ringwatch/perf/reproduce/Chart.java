package io.ringwatch.perf.reproduce;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A readable XY plot written as PNG: title, axis titles with units, optional log axes, legend; measured points
 * drawn as markers and fitted or closed-form curves as lines, the way the paper's figures are drawn.
 */
public final class Chart
{
    private static final int WIDTH = 960;
    private static final int HEIGHT = 600;

    static
    {
        // plots are rendered off-screen; no display is needed or wanted
        System.setProperty("java.awt.headless", "true");
    }

    private final XYChart chart;

    /**
     * @param title  chart title.
     * @param xTitle x axis title with unit.
     * @param yTitle y axis title with unit.
     */
    public Chart(final String title, final String xTitle, final String yTitle)
    {
        chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle)
            .build();
        final var styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setPlotGridLinesColor(new Color(220, 220, 220));
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        styler.setMarkerSize(7);
    }

    /**
     * @return this, with a logarithmic x axis.
     */
    public Chart logX()
    {
        chart.getStyler().setXAxisLogarithmic(true);
        return this;
    }

    /**
     * @return this, with a logarithmic y axis.
     */
    public Chart logY()
    {
        chart.getStyler().setYAxisLogarithmic(true);
        return this;
    }

    /**
     * @param min y axis lower bound.
     * @return this.
     */
    public Chart yMin(final double min)
    {
        chart.getStyler().setYAxisMin(min);
        return this;
    }

    /**
     * @param pattern {@link java.text.DecimalFormat} pattern of the y axis labels, e.g. {@code "0.0"}.
     * @return this.
     */
    public Chart yDecimalPattern(final String pattern)
    {
        chart.getStyler().setYAxisDecimalPattern(pattern);
        return this;
    }

    /**
     * Measured values: markers, no line.
     *
     * @param name legend entry.
     * @param x    x values.
     * @param y    y values.
     * @return this.
     */
    public Chart points(final String name, final double[] x, final double[] y)
    {
        final XYSeries series = chart.addSeries(name, x, y);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        return this;
    }

    /**
     * Measured means with their confidence intervals: markers joined by a thin line, with error bars.
     *
     * @param name      legend entry.
     * @param x         x values.
     * @param y         y values.
     * @param halfWidth half the interval at each point (the bar spans y ± halfWidth).
     * @return this.
     */
    public Chart pointsWithErrorBars(final String name, final double[] x, final double[] y, final double[] halfWidth)
    {
        final XYSeries series = chart.addSeries(name, x, y, halfWidth);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        series.setLineWidth(1.5f);
        chart.getStyler().setErrorBarsColorSeriesColor(true);
        return this;
    }

    /**
     * A curve (fit, bound or closed form): line, no markers.
     *
     * @param name   legend entry.
     * @param x      x values.
     * @param y      y values.
     * @param dashed true for bounds, false for fits.
     * @return this.
     */
    public Chart line(final String name, final double[] x, final double[] y, final boolean dashed)
    {
        final XYSeries series = chart.addSeries(name, x, y);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        series.setMarker(SeriesMarkers.NONE);
        series.setLineWidth(2f);
        if (dashed)
        {
            series.setLineStyle(new BasicStroke(
                2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[]{8f, 6f}, 0f));
        }
        return this;
    }

    /**
     * Measured values joined by a line, for series with few points where a fit would say nothing.
     *
     * @param name legend entry.
     * @param x    x values.
     * @param y    y values.
     * @return this.
     */
    public Chart pointsAndLine(final String name, final double[] x, final double[] y)
    {
        final XYSeries series = chart.addSeries(name, x, y);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        series.setLineWidth(1.5f);
        return this;
    }

    /**
     * @param dir      output folder.
     * @param fileName name ending in {@code .png}.
     * @return the written file.
     * @throws IOException on write failure.
     */
    public Path save(final Path dir, final String fileName) throws IOException
    {
        if (!fileName.endsWith(".png"))
        {
            throw new IllegalArgumentException("plot file must end in .png: " + fileName);
        }
        final Path path = dir.resolve(fileName);
        final String base = path.toString().substring(0, path.toString().length() - 4);
        BitmapEncoder.saveBitmap(chart, base, BitmapEncoder.BitmapFormat.PNG);
        return path;
    }
}
