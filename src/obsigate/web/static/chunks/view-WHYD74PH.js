import{a as o,b as e,j as r}from"./chunk-TELBNHKU.js";import"./chunk-DCANE7XH.js";async function a(t){e(t,o("section.search-view",o("p.muted",r("app.loading"))))}export{a as show};
