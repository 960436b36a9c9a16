/**
 * The element types of the time-scaled views and of hover popups, bound in their own module so that the
 * diagram container (di.config.ts) only loads it: lanes with a sticky label column, the time axis, signal
 * arrows, output windows, legends, and the HTML popups the language server sends (RequestPopupModelAction).
 */
import { ContainerModule } from 'inversify';
import { DIAGRAM_ELEMENT_TYPES as T } from '@chainlab/contract';
import { configureModelElement, HtmlRootImpl, HtmlRootView, PreRenderedElementImpl } from 'sprotty';
import {
    ArrowImpl,
    ArrowView,
    AxisImpl,
    AxisView,
    IntervalImpl,
    IntervalView,
    LaneImpl,
    LaneView,
    LegendImpl,
    LegendView,
} from './lanes-views.js';
import { PopupBodyView } from './popup-view.js';
import '../css/lanes.css';

export const chainlabLanesModule = new ContainerModule((bind, unbind, isBound, rebind) => {
    const context = { bind, unbind, isBound, rebind };
    configureModelElement(context, T.lane, LaneImpl, LaneView);
    configureModelElement(context, T.interval, IntervalImpl, IntervalView);
    configureModelElement(context, T.axis, AxisImpl, AxisView);
    configureModelElement(context, T.arrow, ArrowImpl, ArrowView);
    configureModelElement(context, T.legend, LegendImpl, LegendView);
    configureModelElement(context, T.popup, HtmlRootImpl, HtmlRootView);
    configureModelElement(context, T.popupBody, PreRenderedElementImpl, PopupBodyView);
});
