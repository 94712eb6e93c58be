import{a as o,b as e,j as r}from"./chunk-TRWMMHQX.js";import"./chunk-C2RC3QPW.js";async function a(t){e(t,o("section.search-view",o("p.muted",r("app.loading"))))}export{a as show};
