(function(){'use strict';var x=document.getElementById('run-live');if(x)x.hidden=false;})();
